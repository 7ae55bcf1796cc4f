entry @compare_u32(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>, %arg2: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [512], strides = [1] : tensor_view<512xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<512xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<512xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %10 = make_tensor_view %9, shape = [512], strides = [1] : tensor_view<512xi32, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(128), padding_value = zero, tensor_view<512xi32, strides=[1]>>
  %12, %13 = load_view_tko weak %11[%1] token = %8 : partition_view<tile=(128), padding_value = zero, tensor_view<512xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %14 = cmpi equal %7, %12, unsigned : tile<128xi32> -> tile<128xi1>
  %15 = exti %14 unsigned : tile<128xi1> -> tile<128xi32>
  %16 = constant <i32: 1> : tile<128xi32>
  %17 = muli %15, %16 : tile<128xi32>
  %18 = cmpi not_equal %7, %12, unsigned : tile<128xi32> -> tile<128xi1>
  %19 = exti %18 unsigned : tile<128xi1> -> tile<128xi32>
  %20 = constant <i32: 2> : tile<128xi32>
  %21 = muli %19, %20 : tile<128xi32>
  %22 = addi %17, %21 : tile<128xi32>
  %23 = cmpi less_than %7, %12, unsigned : tile<128xi32> -> tile<128xi1>
  %24 = exti %23 unsigned : tile<128xi1> -> tile<128xi32>
  %25 = constant <i32: 4> : tile<128xi32>
  %26 = muli %24, %25 : tile<128xi32>
  %27 = addi %22, %26 : tile<128xi32>
  %28 = cmpi less_than_or_equal %7, %12, unsigned : tile<128xi32> -> tile<128xi1>
  %29 = exti %28 unsigned : tile<128xi1> -> tile<128xi32>
  %30 = constant <i32: 8> : tile<128xi32>
  %31 = muli %29, %30 : tile<128xi32>
  %32 = addi %27, %31 : tile<128xi32>
  %33 = cmpi greater_than %7, %12, unsigned : tile<128xi32> -> tile<128xi1>
  %34 = exti %33 unsigned : tile<128xi1> -> tile<128xi32>
  %35 = constant <i32: 16> : tile<128xi32>
  %36 = muli %34, %35 : tile<128xi32>
  %37 = addi %32, %36 : tile<128xi32>
  %38 = cmpi greater_than_or_equal %7, %12, unsigned : tile<128xi32> -> tile<128xi1>
  %39 = exti %38 unsigned : tile<128xi1> -> tile<128xi32>
  %40 = constant <i32: 32> : tile<128xi32>
  %41 = muli %39, %40 : tile<128xi32>
  %42 = addi %37, %41 : tile<128xi32>
  %43 = assume div_by<16>, %arg2 : tile<ptr<i32>>
  %44 = make_tensor_view %43, shape = [512], strides = [1] : tensor_view<512xi32, strides=[1]>
  %45 = make_partition_view %44 : partition_view<tile=(128), padding_value = zero, tensor_view<512xi32, strides=[1]>>
  %46 = store_view_tko weak %42, %45[%1] token = %13 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<512xi32, strides=[1]>>, tile<i32> -> token
  return
}
