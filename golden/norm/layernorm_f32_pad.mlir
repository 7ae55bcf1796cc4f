entry @layernorm_f32_pad(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<ptr<f32>>, %arg3: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [128, 100], strides = [100, 1] : tensor_view<128x100xf32, strides=[100,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>, tile<i32> -> tile<16x128xf32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %10 = make_tensor_view %9, shape = [1, 100], strides = [100, 1] : tensor_view<1x100xf32, strides=[100,1]>
  %11 = make_partition_view %10 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>
  %12 = constant <i32: 0> : tile<i32>
  %13, %14 = load_view_tko weak %11[%12, %2] token = %8 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>, tile<i32> -> tile<1x128xf32>, token
  %15 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %16 = make_tensor_view %15, shape = [1, 100], strides = [100, 1] : tensor_view<1x100xf32, strides=[100,1]>
  %17 = make_partition_view %16 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>
  %18, %19 = load_view_tko weak %17[%12, %2] token = %14 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>, tile<i32> -> tile<1x128xf32>, token
  %20 = iota : tile<128xi32>
  %21 = reshape %20 : tile<128xi32> -> tile<1x128xi32>
  %22 = constant <i32: 128> : tile<i32>
  %23 = muli %2, %22 : tile<i32>
  %24 = reshape %23 : tile<i32> -> tile<1x1xi32>
  %25 = broadcast %24 : tile<1x1xi32> -> tile<1x128xi32>
  %26 = addi %21, %25 : tile<1x128xi32>
  %27 = constant <i32: 100> : tile<1x128xi32>
  %28 = cmpi less_than %26, %27, signed : tile<1x128xi32> -> tile<1x128xi1>
  %29 = broadcast %28 : tile<1x128xi1> -> tile<16x128xi1>
  %30 = constant <f32: 0.000000e+00> : tile<16x128xf32>
  %31 = select %29, %7, %30 : tile<16x128xi1>, tile<16x128xf32>
  %32 = reduce %31 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%33: tile<f32>, %34: tile<f32>) {
    %35 = addf %33, %34  : tile<f32>
    yield %35 : tile<f32>
  }
  %36 = reshape %32 : tile<16xf32> -> tile<16x1xf32>
  %37 = constant <i32: 100> : tile<i32>
  %38 = subi %37, %23 : tile<i32>
  %39 = maxi %38, %12 signed : tile<i32>
  %40 = mini %39, %22 signed : tile<i32>
  %41 = itof %40 signed  : tile<i32> -> tile<f32>
  %42 = reshape %41 : tile<f32> -> tile<1x1xf32>
  %43 = broadcast %42 : tile<1x1xf32> -> tile<16x1xf32>
  %44 = divf %36, %43  : tile<16x1xf32>
  %45 = broadcast %44 : tile<16x1xf32> -> tile<16x128xf32>
  %46 = subf %7, %45  : tile<16x128xf32>
  %47 = mulf %46, %46  : tile<16x128xf32>
  %48 = select %29, %47, %30 : tile<16x128xi1>, tile<16x128xf32>
  %49 = reduce %48 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%50: tile<f32>, %51: tile<f32>) {
    %52 = addf %50, %51  : tile<f32>
    yield %52 : tile<f32>
  }
  %53 = reshape %49 : tile<16xf32> -> tile<16x1xf32>
  %54 = divf %53, %43  : tile<16x1xf32>
  %55 = constant <f32: 9.99999974E-6> : tile<16x1xf32>
  %56 = addf %54, %55  : tile<16x1xf32>
  %57 = rsqrt %56 : tile<16x1xf32>
  %58 = broadcast %57 : tile<16x1xf32> -> tile<16x128xf32>
  %59 = mulf %46, %58  : tile<16x128xf32>
  %60 = broadcast %13 : tile<1x128xf32> -> tile<16x128xf32>
  %61 = mulf %59, %60  : tile<16x128xf32>
  %62 = broadcast %18 : tile<1x128xf32> -> tile<16x128xf32>
  %63 = addf %61, %62  : tile<16x128xf32>
  %64 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %65 = make_tensor_view %64, shape = [128, 100], strides = [100, 1] : tensor_view<128x100xf32, strides=[100,1]>
  %66 = make_partition_view %65 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>
  %67 = store_view_tko weak %63, %66[%1, %2] token = %19 : tile<16x128xf32>, partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>, tile<i32> -> token
  return
}
