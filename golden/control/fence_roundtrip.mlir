entry @fence_roundtrip(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = constant <f32: 3.000000e+00> : tile<128xf32>
  %10 = mulf %7, %9  : tile<128xf32>
  %11 = reshape %arg1 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %12 = broadcast %11 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %13 = constant <i32: 128> : tile<i32>
  %14 = muli %1, %13 : tile<i32>
  %15 = reshape %14 : tile<i32> -> tile<1xi32>
  %16 = broadcast %15 : tile<1xi32> -> tile<128xi32>
  %17 = iota : tile<128xi32>
  %18 = addi %16, %17 : tile<128xi32>
  %19 = offset %12, %18 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %20 = store_ptr_tko weak %19, %10 token=%8 : tile<128xptr<f32>>, tile<128xf32> -> token
  %21 = memory_fence_alias_tko %20
  %22, %23 = load_ptr_tko weak %19 token=%21 : tile<128xptr<f32>> -> tile<128xf32>, token
  %24 = constant <f32: 1.000000e+00> : tile<128xf32>
  %25 = addf %22, %24  : tile<128xf32>
  %26 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %27 = make_tensor_view %26, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %28 = make_partition_view %27 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %29 = store_view_tko weak %25, %28[%1] token = %23 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
