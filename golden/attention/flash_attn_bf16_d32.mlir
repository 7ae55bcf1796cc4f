entry @flash_attn_bf16_d32(%arg0: tile<ptr<bf16>>, %arg1: tile<ptr<bf16>>, %arg2: tile<ptr<bf16>>, %arg3: tile<ptr<bf16>>, %arg4: tile<f32>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %5 = make_tensor_view %4, shape = [128, 32], strides = [32, 1] : tensor_view<128x32xbf16, strides=[32,1]>
  %6 = make_partition_view %5 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x32xbf16, strides=[32,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x32xbf16, strides=[32,1]>>, tile<i32> -> tile<32x32xbf16>, token
  %9 = constant <i32: 0> : tile<i32>
  %10 = constant <i32: 4> : tile<i32>
  %11 = constant <i32: 1> : tile<i32>
  %12 = constant <f32: 0xFF800000> : tile<32x1xf32>
  %13 = constant <f32: 0.000000e+00> : tile<32x1xf32>
  %14 = constant <f32: 0.000000e+00> : tile<32x32xf32>
  %15, %16, %17, %18 = for %19 in (%9 to %10, step %11) : tile<i32> iter_values(%20 = %12, %21 = %13, %22 = %14, %23 = %8) -> (tile<32x1xf32>, tile<32x1xf32>, tile<32x32xf32>, token) {
    %24 = assume div_by<16>, %arg1 : tile<ptr<bf16>>
    %25 = make_tensor_view %24, shape = [128, 32], strides = [32, 1] : tensor_view<128x32xbf16, strides=[32,1]>
    %26 = make_partition_view %25 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x32xbf16, strides=[32,1]>>
    %27, %28 = load_view_tko weak %26[%19, %2] token = %23 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x32xbf16, strides=[32,1]>>, tile<i32> -> tile<32x32xbf16>, token
    %29 = assume div_by<16>, %arg2 : tile<ptr<bf16>>
    %30 = make_tensor_view %29, shape = [128, 32], strides = [32, 1] : tensor_view<128x32xbf16, strides=[32,1]>
    %31 = make_partition_view %30 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x32xbf16, strides=[32,1]>>
    %32, %33 = load_view_tko weak %31[%19, %2] token = %28 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x32xbf16, strides=[32,1]>>, tile<i32> -> tile<32x32xbf16>, token
    %34 = permute %27 [1, 0] : tile<32x32xbf16> -> tile<32x32xbf16>
    %35 = mmaf %7, %34, %14 : tile<32x32xbf16>, tile<32x32xbf16>, tile<32x32xf32>
    %36 = reshape %arg4 : tile<f32> -> tile<1x1xf32>
    %37 = broadcast %36 : tile<1x1xf32> -> tile<32x32xf32>
    %38 = mulf %35, %37  : tile<32x32xf32>
    %39 = reduce %38 dim=1 identities=[0xFF800000 : f32] : tile<32x32xf32> -> tile<32xf32> 
    (%40: tile<f32>, %41: tile<f32>) {
      %42 = maxf %40, %41 : tile<f32>
      yield %42 : tile<f32>
    }
    %43 = reshape %39 : tile<32xf32> -> tile<32x1xf32>
    %44 = maxf %20, %43 : tile<32x1xf32>
    %45 = subf %20, %44  : tile<32x1xf32>
    %46 = exp %45  : tile<32x1xf32>
    %47 = mulf %21, %46  : tile<32x1xf32>
    %48 = broadcast %44 : tile<32x1xf32> -> tile<32x32xf32>
    %49 = subf %38, %48  : tile<32x32xf32>
    %50 = exp %49  : tile<32x32xf32>
    %51 = reduce %50 dim=1 identities=[0.000000e+00 : f32] : tile<32x32xf32> -> tile<32xf32> 
    (%52: tile<f32>, %53: tile<f32>) {
      %54 = addf %52, %53  : tile<f32>
      yield %54 : tile<f32>
    }
    %55 = reshape %51 : tile<32xf32> -> tile<32x1xf32>
    %56 = addf %47, %55  : tile<32x1xf32>
    %57 = ftof %50  : tile<32x32xf32> -> tile<32x32xbf16>
    %58 = broadcast %46 : tile<32x1xf32> -> tile<32x32xf32>
    %59 = mulf %22, %58  : tile<32x32xf32>
    %60 = mmaf %57, %32, %59 : tile<32x32xbf16>, tile<32x32xbf16>, tile<32x32xf32>
    continue %44, %56, %60, %33 : tile<32x1xf32>, tile<32x1xf32>, tile<32x32xf32>, token
  }
  %61 = broadcast %16 : tile<32x1xf32> -> tile<32x32xf32>
  %62 = divf %17, %61  : tile<32x32xf32>
  %63 = ftof %62  : tile<32x32xf32> -> tile<32x32xbf16>
  %64 = assume div_by<16>, %arg3 : tile<ptr<bf16>>
  %65 = make_tensor_view %64, shape = [128, 32], strides = [32, 1] : tensor_view<128x32xbf16, strides=[32,1]>
  %66 = make_partition_view %65 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x32xbf16, strides=[32,1]>>
  %67 = store_view_tko weak %63, %66[%1, %2] token = %18 : tile<32x32xbf16>, partition_view<tile=(32x32), padding_value = zero, tensor_view<128x32xbf16, strides=[32,1]>>, tile<i32> -> token
  return
}
